# kexp plot; run `gnuplot validation_accuracy_heat_gaussian_map_none_kernel_ridge_classifier_dual_kernel.sigma_solver.lambda.gp` here to redraw validation_accuracy_heat_gaussian_map_none_kernel_ridge_classifier_dual_kernel.sigma_solver.lambda.svg
set terminal svg size 1000,642 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'validation_accuracy_heat_gaussian_map_none_kernel_ridge_classifier_dual_kernel.sigma_solver.lambda.svg'
set title 'gaussian map=none · kernel_ridge_classifier (dual): validation accuracy over σ and λ'
set xlabel 'σ (kernel.sigma)'
set ylabel 'λ (solver.lambda)'
set grid
set format x '%g'
set format y '%g'
set bmargin 5
set label 100 'Framed: the best square. An empty square: no cell there finished with a finite error.' at screen 0.01, screen 0.0218 left font ',12'
set xrange [-0.5:3.5]
set yrange [-0.5:3.5]
set xtics ('0.1' 0, '0.3' 1, '1' 2, '3' 3)
set ytics ('0.001' 0, '0.01' 1, '0.1' 2, '1' 3)
unset grid
set cblabel 'validation accuracy (mean over repeats)'
set palette defined (0 '#FFFFD9', 0.4 '#C7E9B4', 0.7 '#41B6C4', 1 '#225EA8')
$heat << EOD
0 0 0.9854166666666666
1 0 0.9902777777777777
2 0 0.9930555555555557
3 0 0.9881944444444444

0 1 0.9874999999999999
1 1 0.9923611111111111
2 1 0.9930555555555557
3 1 0.9881944444444444

0 2 0.9888888888888889
1 2 0.9930555555555555
2 2 0.9944444444444445
3 2 0.9868055555555554

0 3 0.9916666666666667
1 3 0.99375
2 3 0.9951388888888889
3 3 0.8944444444444445

EOD
set object 1 rect from 2-0.5, 3-0.5 to 2+0.5, 3+0.5 front fillstyle empty border lc rgb '#D55E00' lw 4
plot $heat using 1:2:3 with image pixels notitle, \
     $heat using 1:2:(sprintf('%.3g', $3)) with labels notitle textcolor rgb '#000000'
