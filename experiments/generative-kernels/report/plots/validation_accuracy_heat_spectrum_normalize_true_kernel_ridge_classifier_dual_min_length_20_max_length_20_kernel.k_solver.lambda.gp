# kexp plot; run `gnuplot validation_accuracy_heat_spectrum_normalize_true_kernel_ridge_classifier_dual_min_length_20_max_length_20_kernel.k_solver.lambda.gp` here to redraw validation_accuracy_heat_spectrum_normalize_true_kernel_ridge_classifier_dual_min_length_20_max_length_20_kernel.k_solver.lambda.svg
set terminal svg size 1000,642 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'validation_accuracy_heat_spectrum_normalize_true_kernel_ridge_classifier_dual_min_length_20_max_length_20_kernel.k_solver.lambda.svg'
set title 'spectrum normalize=true · kernel_ridge_classifier (dual) · min_length=20 max_length=20: validation accuracy over k and λ'
set xlabel 'k (kernel.k)'
set ylabel 'λ (solver.lambda)'
set grid
set format x '%g'
set format y '%g'
set bmargin 5
set label 100 'Framed: the best square. An empty square: no cell there finished with a finite error.' at screen 0.01, screen 0.0218 left font ',12'
set xrange [-0.5:3.5]
set yrange [-0.5:3.5]
set xtics ('1' 0, '2' 1, '3' 2, '4' 3)
set ytics ('0.001' 0, '0.01' 1, '0.1' 2, '1' 3)
unset grid
set cblabel 'validation accuracy (mean over repeats)'
set palette defined (0 '#FFFFD9', 0.4 '#C7E9B4', 0.7 '#41B6C4', 1 '#225EA8')
$heat << EOD
0 0 0.6208119801992544
1 0 0.607438995498697
2 0 0.5824137458073043
3 0 0.5441402012493922

0 1 0.6208119801992544
1 1 0.6091098392748039
2 1 0.5815658549358472
3 1 0.5591029813339318

0 2 0.6208119801992544
1 2 0.609103604783102
2 2 0.5807429020311975
3 2 0.5890659484532227

0 3 0.6216474020873078
1 3 0.6057619172308882
2 3 0.5999825434232348
3 3 0.6016159802491302

EOD
set object 1 rect from 0-0.5, 3-0.5 to 0+0.5, 3+0.5 front fillstyle empty border lc rgb '#D55E00' lw 4
plot $heat using 1:2:3 with image pixels notitle, \
     $heat using 1:2:(sprintf('%.3g', $3)) with labels notitle textcolor rgb '#000000'
