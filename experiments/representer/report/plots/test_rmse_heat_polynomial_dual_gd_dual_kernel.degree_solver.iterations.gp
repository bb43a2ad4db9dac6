# kexp plot; run `gnuplot test_rmse_heat_polynomial_dual_gd_dual_kernel.degree_solver.iterations.gp` here to redraw test_rmse_heat_polynomial_dual_gd_dual_kernel.degree_solver.iterations.svg
set terminal svg size 1000,642 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_rmse_heat_polynomial_dual_gd_dual_kernel.degree_solver.iterations.svg'
set title 'polynomial · dual_gd (dual): test RMSE over p and iterations'
set xlabel 'p (kernel.degree)'
set ylabel 'iterations (solver.iterations)'
set grid
set format x '%g'
set format y '%g'
set bmargin 5
set label 100 'Framed: the best square. An empty square: no cell there finished with a finite error.' at screen 0.01, screen 0.0218 left font ',12'
set xrange [-0.5:4.5]
set yrange [-0.5:3.5]
set xtics ('1' 0, '2' 1, '3' 2, '4' 3, '5' 4)
set ytics ('1' 0, '10' 1, '100' 2, '1000' 3)
unset grid
set cblabel 'test RMSE (mean over repeats)'
set palette defined (0 '#FFFFD9', 0.4 '#C7E9B4', 0.7 '#41B6C4', 1 '#225EA8')
$heat << EOD
0 0 0.41419048142600323
1 0 0.41610522895888413
2 0 0.38493567955701435
3 0 0.38122825169109675
4 0 0.3610963550301898

0 1 0.39679114880842614
1 1 0.40573695371273744
2 1 0.28457205795192975
3 1 0.2654554038552797
4 1 0.2106923160389646

0 2 0.3976582256058137
1 2 0.41748695607720726
2 2 0.11589643855320021
3 2 0.1393738961659461
4 2 0.1399885573517271

0 3 0.3976582256058375
1 3 0.4174671899131929
2 3 0.10682574244873919
3 3 0.14244135300947397
4 3 0.18857959846245054

EOD
set object 1 rect from 2-0.5, 3-0.5 to 2+0.5, 3+0.5 front fillstyle empty border lc rgb '#D55E00' lw 4
plot $heat using 1:2:3 with image pixels notitle, \
     $heat using 1:2:(sprintf('%.3g', $3)) with labels notitle textcolor rgb '#000000'
